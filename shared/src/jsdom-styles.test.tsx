/**
 * The Jest shim that takes out of each style sheet the rules no test can see (../build/jest.shims.cjs):
 * what hides an element, or makes it unclickable, must still hide it, for role queries and for
 * jest-dom alike, and the rest must be gone (that is what keeps a role query fast).
 */
import { fireEvent, render, screen } from '@testing-library/react';
import { Button, Tabs } from 'antd';

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

afterEach(() => document.head.querySelectorAll('style[data-shim-test]').forEach((style) => style.remove()));

function addStyle(css: string): HTMLStyleElement {
  const style = document.createElement('style');
  style.setAttribute('data-shim-test', '');
  style.textContent = css;
  document.head.appendChild(style);
  return style;
}

describe('the style sheets tests see', () => {
  it('keep the rules that hide, fade or disable, drop the others, and look into @media and @layer', async () => {
    const style = addStyle(
      [
        '.gone{display:none}',
        '.unseen{visibility:hidden;color:red}',
        '.faded{opacity:0}',
        '.inert{pointer-events:none}',
        '.red{color:red;padding:4px}',
        '@media (min-width: 1px){.wide{margin:0}.wider{display:none}}',
        '@layer antd{.layered{font-size:20px}.layered-gone{display:none}}',
      ].join('\n'),
    );
    await settle();
    const texts = [...(style.sheet?.cssRules ?? [])].map((rule) => rule.cssText.replace(/\s+/g, ''));
    expect(texts).toEqual([
      '.gone{display:none;}',
      '.unseen{visibility:hidden;color:red;}',
      '.faded{opacity:0;}',
      '.inert{pointer-events:none;}',
      '@media(min-width:1px){.wider{display:none;}}',
      '@layerantd{.layered-gone{display:none;}}',
    ]);
    render(
      <div>
        <button className="gone">Gone</button>
        <button className="unseen">Unseen</button>
        <button className="faded">Faded</button>
        <button className="red">Red</button>
      </div>,
    );
    expect(screen.queryByRole('button', { name: 'Gone' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Unseen' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Faded' })).not.toBeVisible();
    expect(screen.getByRole('button', { name: 'Red' })).toBeVisible();
  });

  it("still hide what antd hides with its own classes: an inactive tab's panel", async () => {
    render(
      <Tabs
        items={[
          { key: 'a', label: 'First', children: <Button>In the first</Button> },
          { key: 'b', label: 'Second', children: <Button>In the second</Button> },
        ]}
      />,
    );
    await settle();
    expect(screen.getByRole('button', { name: 'In the first' })).toBeVisible();
    expect(document.head.querySelector('style:not([data-shim-test])')).not.toBeNull();
    // antd keeps a visited tab's panel in the document once another is chosen, hidden by a class.
    fireEvent.click(screen.getByRole('tab', { name: 'Second' }));
    expect(await screen.findByRole('button', { name: 'In the second' })).toBeVisible();
    expect(screen.queryByRole('button', { name: 'In the first' })).not.toBeInTheDocument();
    expect(screen.getByText('In the first')).not.toBeVisible();
  });
});
