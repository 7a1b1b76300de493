import { describe, expect, it } from 'vitest';
import { ChallengeBoard, challengeAnswer } from './challenges.js';

describe('HTTP-01 board', () => {
  it('answers only GET / HEAD over plain HTTP for a base64url token on the board', () => {
    const board = new ChallengeBoard();
    const lookup = (t: string) => board.get(t);
    const changes: number[] = [];
    board.onChange(() => changes.push(board.size));
    board.set('Tok_en-1', 'Tok_en-1.thumb');
    const p = '/.well-known/acme-challenge/';
    expect(challengeAnswer(lookup, 'GET', `${p}Tok_en-1`, false)).toBe('Tok_en-1.thumb');
    expect(challengeAnswer(lookup, 'HEAD', `${p}Tok_en-1`, false)).toBe('Tok_en-1.thumb');
    expect(challengeAnswer(lookup, 'POST', `${p}Tok_en-1`, false)).toBeUndefined();
    expect(challengeAnswer(lookup, 'GET', `${p}Tok_en-1`, true)).toBeUndefined();
    expect(challengeAnswer(lookup, 'GET', `${p}Tok_en-1?x=1`, false)).toBeUndefined();
    expect(challengeAnswer(lookup, 'GET', `${p}../Tok_en-1`, false)).toBeUndefined();
    expect(challengeAnswer(lookup, 'GET', `/x${p}Tok_en-1`, false)).toBeUndefined();
    expect(challengeAnswer(undefined, 'GET', `${p}Tok_en-1`, false)).toBeUndefined();
    expect(() => board.set('../etc', 'x')).toThrow();
    board.delete('Tok_en-1');
    board.delete('Tok_en-1');
    expect(challengeAnswer(lookup, 'GET', `${p}Tok_en-1`, false)).toBeUndefined();
    expect(changes).toEqual([1, 0]);
  });
});
