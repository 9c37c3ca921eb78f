// A team's slug as GitHub derives it from its name (teams.ts).
import { describe, expect, it } from 'vitest';
import { teamSlug } from './teams.js';

describe('teamSlug', () => {
  it('lowers the name and joins its words with one hyphen', () => {
    expect(teamSlug('Core Team')).toBe('core-team');
    expect(teamSlug('Core  Team!')).toBe('core-team');
    expect(teamSlug('  -Ops/Infra_2 ')).toBe('ops-infra-2');
    expect(teamSlug('justice-league')).toBe('justice-league');
  });

  it('keeps no character but ASCII letters (accents dropped), digits and single inner hyphens', () => {
    expect(teamSlug('Équipe café')).toBe('equipe-cafe');
    expect(teamSlug('Straße 東京')).toBe('stra-e');
    expect(teamSlug('!!!')).toBe('');
    expect(teamSlug(undefined)).toBe('');
  });
});
