import { composeValidators, required } from '@portal/api';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { FORM_ERROR } from 'final-form';
import { ApiError } from '../../api/client.js';
import { CheckboxField } from './CheckboxField.js';
import { FormShell } from './FormShell.js';
import { submissionErrors } from './submission.js';
import { TextField } from './TextField.js';

jest.setTimeout(20_000);

describe('FormShell and its fields', () => {
  it('renders the fields, submits their values, and shows a form error below the button', async () => {
    const onSubmit = jest.fn(async (_values: { name: string }) => ({ [FORM_ERROR]: 'The server said no.' }));
    render(
      <FormShell<{ name: string }> onSubmit={onSubmit} aria-label="Test form" submitLabel="Save">
        <TextField name="name" label="Name" validate={composeValidators(required('Please enter a name.'))} />
      </FormShell>,
    );
    const form = screen.getByRole('form', { name: 'Test form' });
    expect(form).toHaveAttribute('novalidate');
    const input = screen.getByLabelText('Name');
    expect(input).toHaveAttribute('id', 'field-name');
    expect(input).toHaveAttribute('aria-required', 'true');

    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Please enter a name.')).toBeInTheDocument();
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(onSubmit).not.toHaveBeenCalled();

    fireEvent.change(input, { target: { value: 'Ada' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The server said no.');
    expect(onSubmit.mock.calls[0]?.[0]).toEqual({ name: 'Ada' });
    // Below the button.
    const button = screen.getByRole('button', { name: 'Save' });
    expect(button.compareDocumentPosition(screen.getByRole('alert')) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('has a Cancel beside the button that calls its handler, and a checkbox field holding a boolean', async () => {
    const onCancel = jest.fn();
    const onSubmit = jest.fn(async (_values: { agree: boolean }) => undefined);
    render(
      <FormShell<{ agree: boolean }> onSubmit={onSubmit} submitLabel="Send" cancel={{ onClick: onCancel, label: 'Back' }}>
        <CheckboxField name="agree" label="I agree" />
      </FormShell>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    expect(onCancel).toHaveBeenCalledTimes(1);
    fireEvent.click(screen.getByLabelText('I agree'));
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalled());
    expect(onSubmit.mock.calls[0]?.[0]).toEqual({ agree: true });
  });
});

describe('submissionErrors', () => {
  const refusal = new ApiError('Email address is invalid', 400, 400, { email: 'Email address is invalid', other: 'Not here' });

  it("puts the server's field messages under their fields", () => {
    expect(submissionErrors(refusal)).toEqual({ email: 'Email address is invalid', other: 'Not here' });
  });

  it("with the form's fields: only theirs under fields; none of them named, the message is the form's error", () => {
    expect(submissionErrors(refusal, ['email', 'reason'])).toEqual({ email: 'Email address is invalid' });
    expect(submissionErrors(refusal, ['reason'])).toEqual({ [FORM_ERROR]: 'Email address is invalid' });
    expect(submissionErrors(new Error('offline'), ['reason'])).toEqual({ [FORM_ERROR]: 'offline' });
    expect(submissionErrors('nothing useful')).toEqual({ [FORM_ERROR]: 'Unknown server error' });
  });
});
