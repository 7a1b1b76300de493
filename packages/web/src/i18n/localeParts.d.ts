// The build's locale parts (localeParts.ts): each a subset of one locale file's namespaces.
declare module 'virtual:locale-part/*' {
  const messages: Record<string, Record<string, string>>;
  export default messages;
}
