import { Popover } from 'antd';
import { useTranslation } from 'react-i18next';
import { CopyButton } from '../../components/CopyButton';
import { RESET_LOGIN_COMMANDS } from './resetCommands';

/** Help popover: the login is reset on the machine itself, never through the web. */
export function ForgotPassword() {
  const { t } = useTranslation();
  const content = (
    <div className="login-forgot" data-testid="forgot-password-help">
      <p>{t('login.forgotIntro')}</p>
      {RESET_LOGIN_COMMANDS.map((cmd) => (
        <div key={cmd} className="login-forgot-command">
          <code className="mono">{cmd}</code>
          <CopyButton text={cmd} />
        </div>
      ))}
      <p className="login-forgot-effect">{t('login.forgotEffect')}</p>
    </div>
  );
  return (
    <Popover content={content} title={t('login.forgotTitle')} trigger="click" placement="bottomRight">
      <button type="button" className="login-link" data-testid="forgot-password">
        {t('login.forgotPassword')}
      </button>
    </Popover>
  );
}
