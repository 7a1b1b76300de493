import { useQueryClient } from '@tanstack/react-query';
import { Alert, Card, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { setItem } from '../../api/storage';
import { LogoMark } from '../../app/shell/Logo';
import { LoginForm } from './LoginForm';
import { useTicketLogin } from './useTicketLogin';
import './login.css';

export default function LoginScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  const onSuccess = (token: string) => {
    setItem('token', token);
    // Whatever was cached belonged to the previous session.
    queryClient.clear();
    navigate('/status', { replace: true });
  };
  const ticket = useTicketLogin(onSuccess);

  return (
    <Card className="login-card" data-testid="login-screen">
      <div className="login-head">
        <LogoMark size={40} />
        <div>
          <h1 className="login-title">Lucky</h1>
          <div className="login-subtitle">{t('login.subtitle')}</div>
        </div>
      </div>
      {ticket.phase === 'pending' && (
        <Alert
          type="info"
          className="login-ticket"
          title={
            <span>
              <Spin size="small" /> {t('login.ticketPending')}
            </span>
          }
          data-testid="login-ticket-pending"
        />
      )}
      {ticket.phase === 'refused' && (
        <Alert
          type="error"
          showIcon
          className="login-ticket"
          title={ticket.text}
          description={t('login.ticketUsePassword')}
          data-testid="login-ticket-refused"
        />
      )}
      <LoginForm onSuccess={onSuccess} />
    </Card>
  );
}
