// Refusals inside a command: thrown as FtpError (a reply code and text), and the storage's
// failures mapped to the FTP codes clients act on (550 permanent, 451 try again, 452 / 552 space).
import { StorageError } from '../../../core/storage/types.js';

export class FtpError extends Error {
  constructor(
    readonly code: number,
    readonly text: string,
  ) {
    super(`${code} ${text}`);
    this.name = 'FtpError';
  }
}

/** `write`: the verb stores a file (STOR, APPE, STOU, RNTO), where RFC 959 names 553 for a bad name. */
export function storageReply(err: unknown, write = false): FtpError {
  if (err instanceof FtpError) return err;
  if (!(err instanceof StorageError)) return new FtpError(451, 'Local error in processing');
  const nameCode = write ? 553 : 550;
  switch (err.code) {
    case 'badPath':
      return new FtpError(nameCode, 'File name not allowed');
    case 'notFound':
      return new FtpError(550, 'No such file or directory');
    case 'exists':
      return new FtpError(nameCode, 'File exists');
    case 'notDir':
      return new FtpError(550, 'Not a directory');
    case 'isDir':
      return new FtpError(550, 'Is a directory');
    case 'conflict':
      return new FtpError(nameCode, 'The parent directory does not exist');
    case 'readOnly':
    case 'denied':
      return new FtpError(550, 'Permission denied');
    case 'noSpace':
      return new FtpError(452, 'Insufficient storage space');
    case 'unreachable':
      return new FtpError(451, 'Storage unreachable; try again later');
    case 'failed':
      // A remote WebDAV storage cannot append or write at an offset (APPE, REST + STOR).
      if (err.detail === 'notSupported')
        return new FtpError(504, 'Not supported by this storage (appending and resuming need a local folder)');
      return new FtpError(451, 'Local error in processing');
    default:
      return new FtpError(451, 'Local error in processing');
  }
}
