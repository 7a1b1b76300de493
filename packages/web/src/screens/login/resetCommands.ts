// Commands shown by the "forgot password" help. They are shell commands, the
// same in every language, so they live here rather than in the locale files.
export const RESET_LOGIN_COMMANDS = [
  'npm run reset-login -- -cd <config dir>',
  'node packages/server/dist/main.js reset-login -cd <config dir>',
] as const;
