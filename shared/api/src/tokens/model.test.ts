import { expiryAmountRule, expirySecondsProblem } from './model.js';

describe('token expiry rules', () => {
  const rule = expiryAmountRule(180);
  const message = 'Please enter a whole number between 1 and 180.';

  it('takes digits only, a whole number from 1 to the maximum', () => {
    for (const good of ['1', '5', '05', '180', 30]) expect(rule(good)).toBeUndefined();
  });

  it('refuses anything but digits: spaces around them, a sign, a decimal point, an exponent, words, nothing', () => {
    for (const bad of [' 5', '5 ', ' 5 ', '\t5', '+5', '-5', '5.0', '1.5', '5e1', '0x5', 'ten', '', '0', '181', 0, undefined]) {
      expect([bad, rule(bad)]).toEqual([bad, message]);
    }
  });

  it('the server checks seconds: a whole number of hours or days in range', () => {
    expect(expirySecondsProblem(5 * 3600, 180)).toBeUndefined();
    expect(expirySecondsProblem(5 * 86_400, 180)).toBeUndefined();
    expect(expirySecondsProblem(181 * 86_400, 180)).toBe(message);
    expect(expirySecondsProblem(90, 180)).toBe(message);
  });
});
