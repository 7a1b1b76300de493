// A dialog's state. `seq` grows with every opening and keys the dialog, so each opening starts
// from a fresh form; closing keeps the key so the closing animation still plays.
export interface DialogState<T> {
  seq: number;
  open: boolean;
  of?: T;
}
export const opened =
  <T>(of?: T) =>
  (d: DialogState<T>): DialogState<T> => ({ seq: d.seq + 1, open: true, of });
export const closed = <T>(d: DialogState<T>): DialogState<T> => ({ ...d, open: false });
export const shut = { seq: 0, open: false };
