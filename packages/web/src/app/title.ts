// Spec §2: "Lucky | {route title}" when the route has a title, else "Lucky".
export const PRODUCT_NAME = 'Lucky';

export function pageTitle(routeTitle?: string | null): string {
  const t = routeTitle?.trim();
  return t ? `${PRODUCT_NAME} | ${t}` : PRODUCT_NAME;
}

/** What a route puts in its `handle` for the title. */
export interface RouteHandle {
  titleKey?: string;
}

/** The innermost route that declares a title wins. */
export function routeTitleKey(matches: readonly { handle?: unknown }[]): string | undefined {
  for (let i = matches.length - 1; i >= 0; i--) {
    const handle = matches[i].handle as RouteHandle | undefined;
    if (handle?.titleKey) return handle.titleKey;
  }
  return undefined;
}
