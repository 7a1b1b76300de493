// Figures of the STUN screen: sizes in base 1000 with three significant digits (spec §9) and
// rates per second.
import { formatSize } from '@lucky/shared';

export const size = (bytes: number): string => formatSize(bytes);

export const rate = (bytesPerSecond: number): string => `${formatSize(Math.round(bytesPerSecond))}/s`;
