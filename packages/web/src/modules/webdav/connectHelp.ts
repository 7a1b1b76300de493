// What to type into each client to reach the server: made from the host the browser reached the
// console by (or the certificate's name over HTTPS: clients check it), the server's port, scheme
// and prefix. Pure, so the strings are tested as they are shown.

export interface ConnectTarget {
  /** Host name or IP address (an IPv6 literal without brackets). */
  host: string;
  port: number;
  https: boolean;
  /** '/' or '/dav'. */
  prefix: string;
  /** A user name to fill in (the first user), or '' for a placeholder. */
  user: string;
}

export interface ConnectLines {
  /** http(s)://host:port/prefix/ */
  url: string;
  /** Windows "Map network drive" folder (UNC form of the WebDAV redirector). */
  windowsUnc: string;
  /** macOS Finder, Go → Connect to Server. */
  finder: string;
  /** GNOME Files (davs://) and KDE Dolphin (webdavs://). */
  gnome: string;
  kde: string;
  /** rclone: a remote made in one command, then a listing. */
  rclone: string[];
  /** davfs2: the mount command and the line for /etc/davfs2/secrets. */
  davfs2: string[];
}

const isIpv6 = (h: string) => h.includes(':');
const hostPart = (h: string) => (isIpv6(h) ? `[${h}]` : h);

/** The URL's authority: the port is left out when it is the scheme's own. */
function authority(t: ConnectTarget): string {
  const standard = t.https ? 443 : 80;
  return t.port === standard ? hostPart(t.host) : `${hostPart(t.host)}:${t.port}`;
}

/** `/dav/` for '/dav', `/` for '/': a collection URL ends with a slash. */
const folder = (prefix: string) => (prefix === '/' ? '/' : `${prefix}/`);

/**
 * Windows maps WebDAV folders as `\\host@SSL@port\DavWWWRoot\prefix` (the WebClient service's
 * UNC form; `@SSL` for HTTPS, the port left out when it is the scheme's own). An IPv6 literal
 * has its own UNC spelling (`fe80--1.ipv6-literal.net`).
 */
function windowsUnc(t: ConnectTarget): string {
  const host = isIpv6(t.host) ? `${t.host.replace(/:/g, '-').replace(/%/g, 's')}.ipv6-literal.net` : t.host;
  const standard = t.https ? 443 : 80;
  const at = `${t.https ? '@SSL' : ''}${t.port === standard ? '' : `@${t.port}`}`;
  const rest = t.prefix === '/' ? '' : `\\${t.prefix.slice(1).split('/').join('\\')}`;
  return `\\\\${host}${at}\\DavWWWRoot${rest}`;
}

export function connectLines(t: ConnectTarget): ConnectLines {
  const scheme = t.https ? 'https' : 'http';
  const path = folder(t.prefix);
  const url = `${scheme}://${authority(t)}${path}`;
  const user = t.user || 'USER';
  return {
    url,
    windowsUnc: windowsUnc(t),
    finder: url,
    gnome: `${t.https ? 'davs' : 'dav'}://${user}@${authority(t)}${path}`,
    kde: `${t.https ? 'webdavs' : 'webdav'}://${user}@${authority(t)}${path}`,
    rclone: [
      `rclone config create lucky webdav url=${url} vendor=other user=${user} pass=PASSWORD --obscure`,
      'rclone lsd lucky:',
    ],
    davfs2: [`sudo mount -t davfs ${url} /mnt/lucky`, `${url} ${user} PASSWORD`],
  };
}
