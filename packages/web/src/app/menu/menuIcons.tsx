import {
  ApiOutlined,
  AppstoreOutlined,
  CloudServerOutlined,
  ClusterOutlined,
  DashboardOutlined,
  DatabaseOutlined,
  FieldTimeOutlined,
  FileTextOutlined,
  FolderOpenOutlined,
  GlobalOutlined,
  HddOutlined,
  InfoCircleOutlined,
  LogoutOutlined,
  PoweroffOutlined,
  SafetyCertificateOutlined,
  SafetyOutlined,
  SettingOutlined,
  ShareAltOutlined,
  SwapOutlined,
  ThunderboltOutlined,
} from '@ant-design/icons';
import type { ReactNode } from 'react';
import type { MenuIcon } from './menuModel';

const ICONS: Record<MenuIcon, ReactNode> = {
  status: <DashboardOutlined />,
  log: <FileTextOutlined />,
  ddns: <GlobalOutlined />,
  web: <CloudServerOutlined />,
  portforward: <SwapOutlined />,
  stun: <ThunderboltOutlined />,
  storage: <HddOutlined />,
  storagemanagement: <DatabaseOutlined />,
  webdav: <ShareAltOutlined />,
  ftpserver: <ApiOutlined />,
  filebrowser: <FolderOpenOutlined />,
  wanji_admin: <ClusterOutlined />,
  wol: <PoweroffOutlined />,
  cron: <FieldTimeOutlined />,
  acme: <SafetyCertificateOutlined />,
  safe: <SafetyOutlined />,
  set: <SettingOutlined />,
  about: <InfoCircleOutlined />,
  logout: <LogoutOutlined />,
};

export function menuIcon(name: MenuIcon): ReactNode {
  return ICONS[name] ?? <AppstoreOutlined />;
}
