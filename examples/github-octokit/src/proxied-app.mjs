// An application that talks to GitHub with Octokit's default base URL and knows
// nothing about mockpoint: run with HTTPS_PROXY and NODE_EXTRA_CA_CERTS set, as a
// user would (Node 20's fetch reads neither proxy variable itself, so undici's
// EnvHttpProxyAgent reads them, as for any proxy). Prints what it got as JSON.
import { Octokit } from '@octokit/rest';
import { EnvHttpProxyAgent, fetch } from 'undici';

const dispatcher = new EnvHttpProxyAgent();
const octokit = new Octokit({ request: { fetch: (url, init) => fetch(url, { ...init, dispatcher }) } });
const { status, data } = await octokit.rest.repos.get({ owner: 'acme', repo: 'app' });
console.log(JSON.stringify({ status, data }));
