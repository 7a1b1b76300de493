// The icon of an entry's type (the server names the type: fileTypeOf).
import {
  AudioOutlined,
  FileImageOutlined,
  FileOutlined,
  FilePdfOutlined,
  FileTextOutlined,
  FileZipOutlined,
  FolderFilled,
  VideoCameraOutlined,
} from '@ant-design/icons';
import type { FilebrowserFileType } from '@lucky/shared';

const ICONS: Record<FilebrowserFileType, typeof FileOutlined> = {
  dir: FolderFilled,
  image: FileImageOutlined,
  video: VideoCameraOutlined,
  audio: AudioOutlined,
  pdf: FilePdfOutlined,
  text: FileTextOutlined,
  archive: FileZipOutlined,
  other: FileOutlined,
};

export function FileIcon({ type, className }: { type: FilebrowserFileType; className?: string }) {
  const Icon = ICONS[type] ?? FileOutlined;
  return <Icon className={`fb-icon fb-icon-${type} ${className ?? ''}`} aria-hidden />;
}
