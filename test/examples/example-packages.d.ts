/**
 * The examples import packages by the names a user installs (`gaxios`, `google-auth-library`, `@octokit/rest`,
 * `openai`); the repository installs them under version aliases (gaxios7, google-auth-library10, octokit-rest22,
 * openai6), to test several versions side by side. These declarations give TypeScript those names, and tsconfig.json's
 * `paths` give them to tsx (which runs the examples in the tests) at run time, each pointing at the same alias.
 * A user's install, and scripts/examples-packed.sh, resolve the names themselves.
 */
declare module 'gaxios' {
  export * from 'gaxios7';
}
declare module 'google-auth-library' {
  export * from 'google-auth-library10';
}
declare module '@octokit/rest' {
  export * from 'octokit-rest22';
}
declare module 'openai' {
  export * from 'openai6';
  export { default } from 'openai6';
}
