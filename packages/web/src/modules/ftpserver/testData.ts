// Answers of the FTP server API for the screen's tests.
import {
  type FtpserverMountView,
  type FtpserverSessionView,
  type FtpserverSettings,
  type FtpserverStatusView,
  type FtpserverUserView,
  ftpserverSettingsSchema,
  SECRET_MASK,
} from '@lucky/shared';

export const MOUNT_KEY = 'Mnt00001';
export const USER_KEY = 'Usr00001';

export function settings(over: Partial<FtpserverSettings> = {}): FtpserverSettings {
  return { ...ftpserverSettingsSchema.parse({ enabled: true }), ...over };
}

export function mount(over: Partial<FtpserverMountView> = {}): FtpserverMountView {
  return {
    key: MOUNT_KEY,
    name: 'share',
    storage: 'Sto00001',
    enabled: true,
    storageName: 'NAS disk',
    available: true,
    storageReadOnly: false,
    ...over,
  };
}

export function user(over: Partial<FtpserverUserView> = {}): FtpserverUserView {
  return { key: USER_KEY, name: 'alice', password: SECRET_MASK, enabled: true, access: { [MOUNT_KEY]: 'rw' }, ...over };
}

export function session(over: Partial<FtpserverSessionView> = {}): FtpserverSessionView {
  return {
    id: 's1',
    user: 'alice',
    address: '192.168.1.20:50123',
    since: Date.parse('2024-05-01T10:00:00Z'),
    tls: true,
    protectedData: true,
    cwd: '/share/photos',
    bytesIn: 1_500_000,
    bytesOut: 20_000,
    ...over,
  };
}

export function status(over: Partial<FtpserverStatusView> = {}): FtpserverStatusView {
  return {
    enabled: true,
    listening: true,
    reasons: [],
    port: 2121,
    address: '',
    tlsReady: true,
    sessions: [],
    bytesIn: 0,
    bytesOut: 0,
    logins: 0,
    failedLogins: 0,
    ...over,
  };
}
