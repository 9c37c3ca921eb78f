/**
 * A login GitHub can give an account, a user's or an organization's: 1–39 letters, digits and
 * single hyphens, no hyphen first or last. The twin cannot know GitHub's users, so it takes each
 * login one could have as a user's (collaborators.ts, path-objects.ts), and answers GitHub's `404`
 * for one no account can have.
 *
 * @module
 */
export const LOGIN = /^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}$/;
