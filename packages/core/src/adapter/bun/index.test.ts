import { describe, expect, it } from 'vitest';
import { createApp } from '../../http/create-app.js';
import { idleTimeoutFor } from './index.js';

describe('idleTimeoutFor (Bun)', () => {
  it('outlasts the longest long-poll (60 s) and the largest delay, within Bun’s 255 s', () => {
    expect(idleTimeoutFor(createApp())).toBe(65);
    expect(idleTimeoutFor(createApp({ maxDelayMs: 1000 }))).toBe(65);
    expect(idleTimeoutFor(createApp({ maxDelayMs: 120_000 }))).toBe(125);
    expect(idleTimeoutFor(createApp({ maxDelayMs: 250_000 }))).toBe(255);
  });

  it('turns the idle timeout off when a delay may outlast Bun’s largest (255 s)', () => {
    expect(idleTimeoutFor(createApp({ maxDelayMs: 250_001 }))).toBe(0);
    expect(idleTimeoutFor(createApp({ maxDelayMs: 3_600_000 }))).toBe(0);
  });
});
