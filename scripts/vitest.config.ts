import { defineProject, mergeConfig } from 'vitest/config';
import { sharedProject } from '../vitest.shared.js';

export default mergeConfig(sharedProject, defineProject({ test: { name: 'scripts', include: ['*.test.ts'] } }));
