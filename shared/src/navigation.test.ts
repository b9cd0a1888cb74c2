import { feedbackOf, safeRedirect } from './navigation';

describe('safeRedirect', () => {
  it.each(['/groups', '/groups?tab=2#x', '/manage-accounts/first.last'])('keeps the path %s', (path) => {
    expect(safeRedirect(path)).toBe(path);
  });

  it.each([
    ['another origin', 'https://evil.example/'],
    ['a protocol-relative URL', '//evil.example/x'],
    ['a backslash trick', '/\\evil.example'],
    ['a tab that browsers strip', '/\t/evil.example'],
    ['a newline', '/\n/evil.example'],
    ['a script URL', 'javascript:alert(1)'],
    ['nothing', ''],
    ['null', null],
  ])('refuses %s', (_what, value) => {
    expect(safeRedirect(value)).toBeUndefined();
  });
});

describe('feedbackOf', () => {
  it('reads the message passed through navigation, and nothing else', () => {
    expect(feedbackOf({ feedback: 'Profile updated successfully.' })).toBe('Profile updated successfully.');
    expect(feedbackOf({ feedback: 3 })).toBeUndefined();
    expect(feedbackOf(null)).toBeUndefined();
  });
});
