import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useNavigateWithFeedback } from '@portal/shared';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { FeedbackBanner } from './FeedbackBanner';

function Saver() {
  const navigate = useNavigateWithFeedback();
  return <button onClick={() => navigate('/profile', 'Profile updated successfully.')}>Save</button>;
}

describe('the feedback banner', () => {
  it('shows the message passed through navigation until dismissed', async () => {
    render(
      <MemoryRouter initialEntries={['/update-profile']}>
        <FeedbackBanner />
        <Routes>
          <Route path="/update-profile" element={<Saver />} />
          <Route path="/profile" element={<p>profile</p>} />
        </Routes>
      </MemoryRouter>,
    );
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('profile')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Profile updated successfully.');
    await userEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByText('Profile updated successfully.')).not.toBeInTheDocument();
  });
});
