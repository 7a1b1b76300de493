import { useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { put } from '../../api/client';
import { removeItem } from '../../api/storage';

/** Spec §2: confirm ("确定要注销登录?" — confirm / click by mistake), then end the session and go to /login. */
export function useLogout(): () => void {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  return useCallback(() => {
    modal.confirm({
      title: t('logout.confirm'),
      okText: t('common.confirm'),
      cancelText: t('logout.clickByMistake'),
      onOk: async () => {
        try {
          await put('api/logout', undefined, { silent: true });
        } catch {
          // The token is dropped here anyway; the server revokes it on expiry.
        }
        removeItem('token');
        queryClient.clear();
        navigate('/login');
      },
    });
  }, [modal, navigate, queryClient, t]);
}
