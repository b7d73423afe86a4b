#!/usr/bin/env node
// The bin points here, not at dist/, so that installing the workspace before a build links it
// without a warning; in a published package dist/ is always there.
import "../dist/cli.js";
