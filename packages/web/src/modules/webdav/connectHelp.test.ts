import { describe, expect, it } from 'vitest';
import { connectLines } from './connectHelp';

describe('what each client is told to type', () => {
  it('HTTPS on a port of its own under a prefix', () => {
    const l = connectLines({ host: 'nas.example.com', port: 16680, https: true, prefix: '/dav', user: 'alice' });
    expect(l.url).toBe('https://nas.example.com:16680/dav/');
    expect(l.windowsUnc).toBe('\\\\nas.example.com@SSL@16680\\DavWWWRoot\\dav');
    expect(l.finder).toBe('https://nas.example.com:16680/dav/');
    expect(l.gnome).toBe('davs://alice@nas.example.com:16680/dav/');
    expect(l.kde).toBe('webdavs://alice@nas.example.com:16680/dav/');
    expect(l.rclone[0]).toBe(
      'rclone config create lucky webdav url=https://nas.example.com:16680/dav/ vendor=other user=alice pass=PASSWORD --obscure',
    );
    expect(l.davfs2).toEqual([
      'sudo mount -t davfs https://nas.example.com:16680/dav/ /mnt/lucky',
      'https://nas.example.com:16680/dav/ alice PASSWORD',
    ]);
  });

  it('plain HTTP at the root; the scheme’s own port is left out', () => {
    const l = connectLines({ host: '192.168.1.10', port: 80, https: false, prefix: '/', user: '' });
    expect(l.url).toBe('http://192.168.1.10/');
    expect(l.windowsUnc).toBe('\\\\192.168.1.10\\DavWWWRoot');
    expect(l.gnome).toBe('dav://USER@192.168.1.10/');
    const other = connectLines({ host: '192.168.1.10', port: 16680, https: false, prefix: '/a/b', user: 'bob' });
    expect(other.windowsUnc).toBe('\\\\192.168.1.10@16680\\DavWWWRoot\\a\\b');
  });

  it('IPv6 literals: brackets in URLs, the ipv6-literal.net name for Windows', () => {
    const l = connectLines({ host: 'fd00::10', port: 443, https: true, prefix: '/', user: 'a' });
    expect(l.url).toBe('https://[fd00::10]/');
    expect(l.windowsUnc).toBe('\\\\fd00--10.ipv6-literal.net@SSL\\DavWWWRoot');
  });
});
