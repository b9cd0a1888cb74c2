import { fireEvent, render, screen } from '@testing-library/react';
import { Pager } from './Pager';

describe('Pager', () => {
  it('steps back and forth by 30, never below 0', () => {
    const onChange = jest.fn();
    const { rerender } = render(<Pager label="Pages" start={0} hasMore count={30} onChange={onChange} />);
    expect(screen.getByRole('navigation', { name: 'Pages' })).toHaveTextContent('Results 1–30');
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(onChange).toHaveBeenLastCalledWith(30);

    rerender(<Pager label="Pages" start={30} hasMore={false} count={4} onChange={onChange} />);
    expect(screen.getByRole('navigation', { name: 'Pages' })).toHaveTextContent('Results 31–34');
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
    fireEvent.click(screen.getByRole('button', { name: 'Previous' }));
    expect(onChange).toHaveBeenLastCalledWith(0);
  });

  it('is disabled while a page loads', () => {
    render(<Pager label="Pages" start={30} hasMore disabled onChange={() => undefined} />);
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
  });
});
