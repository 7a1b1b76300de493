// Jump-in: open a remote console in a new tab, logged in through a one-time link. The tab is
// opened SYNCHRONOUSLY inside the click (a tab opened after an await is no longer "user
// initiated" and popup blockers eat it), blank; it gets the link's address once the manager has
// asked the remote for one. Its opener is cut before it leaves this origin, so the remote page
// cannot reach back into this one.

export type JumpOutcome = { ok: true } | { ok: false; error: unknown } | { ok: false; blocked: true; url: string };

export interface TabLike {
  opener: unknown;
  location: { href: string };
  close(): void;
}

/** Call from the click handler itself, before any await. */
export function jumpIn(
  link: () => Promise<string>,
  open: (url: string, target: string) => TabLike | null = (u, t) => window.open(u, t),
): Promise<JumpOutcome> {
  const tab = open('', '_blank');
  if (tab) tab.opener = null;
  return link().then(
    (url): JumpOutcome => {
      if (!tab) return { ok: false, blocked: true, url };
      tab.location.href = url;
      return { ok: true };
    },
    (error: unknown): JumpOutcome => {
      tab?.close();
      return { ok: false, error };
    },
  );
}
