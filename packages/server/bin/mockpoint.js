#!/usr/bin/env node
// The `mockpoint` command. A committed file rather than dist/cli.js itself, so that
// pnpm can link the bin into dependent workspace packages at install time, before
// the build has written dist/ (otherwise: "Failed to create bin").
import '../dist/cli.js';
