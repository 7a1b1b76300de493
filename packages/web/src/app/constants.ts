/** The product's website, opened by the logo (spec §2) in a new tab. */
export const PRODUCT_WEBSITE = 'https://github.com/lucky-console/lucky-console';
