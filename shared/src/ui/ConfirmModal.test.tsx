import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { ConfirmModal, useConfirmation } from './ConfirmModal';

/** A button that asks about a file, then runs `action` with the modal still open. */
function DeleteButton({ action }: { action: (file: string) => Promise<void> }) {
  const confirmation = useConfirmation<string>();
  const [outcome, setOutcome] = useState('nothing yet');
  const remove = async () => {
    if (!(await confirmation.ask('notes.txt'))) {
      setOutcome('cancelled');
      return;
    }
    try {
      await action('notes.txt');
      setOutcome('deleted');
    } catch {
      setOutcome('failed');
    } finally {
      confirmation.finish();
    }
  };
  return (
    <>
      <button type="button" onClick={() => void remove()}>
        Delete
      </button>
      <p>{outcome}</p>
      <ConfirmModal {...confirmation.modal} title="Delete the file?" okText="Delete it">
        {`Delete ${confirmation.subject ?? ''}?`}
      </ConfirmModal>
    </>
  );
}

describe('useConfirmation', () => {
  it('runs nothing when the user cancels, and closes the modal', async () => {
    const action = jest.fn(() => Promise.resolve());
    render(<DeleteButton action={action} />);
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete the file?' });
    expect(dialog).toHaveTextContent('Delete notes.txt?');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(await screen.findByText('cancelled')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(action).not.toHaveBeenCalled();
  });

  it('keeps the modal open with a spinning button while the confirmed action runs, then closes it', async () => {
    let finishAction: () => void = () => undefined;
    const action = jest.fn(() => new Promise<void>((resolve) => (finishAction = resolve)));
    render(<DeleteButton action={action} />);
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    await screen.findByRole('dialog', { name: 'Delete the file?' });
    fireEvent.click(screen.getByRole('button', { name: 'Delete it' }));
    await waitFor(() => expect(action).toHaveBeenCalledWith('notes.txt'));
    expect(screen.getByRole('dialog', { name: 'Delete the file?' })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: /Delete it/ })).toHaveClass('ant-btn-loading'));
    finishAction();
    expect(await screen.findByText('deleted')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('asks again after a failed action', async () => {
    const action = jest.fn(() => Promise.reject(new Error('no')));
    render(<DeleteButton action={action} />);
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Delete it' }));
    expect(await screen.findByText('failed')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    fireEvent.click(screen.getByRole('button', { name: 'Delete' }));
    expect(await screen.findByRole('dialog', { name: 'Delete the file?' })).toHaveTextContent('Delete notes.txt?');
    expect(screen.getByRole('button', { name: 'Delete it' })).not.toHaveClass('ant-btn-loading');
  });
});
