/**
 * The frame React draws until the shell has loaded is the one the first HTML painted: the top bar
 * with the portal's name (the first paint has words), so that nothing blinks out when React takes over.
 */
import { render, screen } from '@testing-library/react';
import { BOOT_DATA_ID } from './prefetch';
import { StartupSkeleton } from './StartupSkeleton';

function boot(configuration: unknown) {
  const script = document.createElement('script');
  script.type = 'application/json';
  script.id = BOOT_DATA_ID;
  script.textContent = JSON.stringify({ configuration });
  document.head.append(script);
  return () => script.remove();
}

it("draws the portal's name in the top bar, as the server wrote it into the first HTML", () => {
  const remove = boot({ brand: 'DevPlatform' });
  try {
    const { container } = render(<StartupSkeleton />);
    expect(container.querySelector('.startup-bar')).toHaveTextContent('DevPlatform');
    expect(screen.getByRole('status', { name: 'Loading the portal' })).toBeInTheDocument();
  } finally {
    remove();
  }
});

it('says "Portal" where no brand is configured', () => {
  const remove = boot({ brand: 'undefined' });
  try {
    const { container } = render(<StartupSkeleton />);
    expect(container.querySelector('.startup-bar')).toHaveTextContent(/^Portal$/);
  } finally {
    remove();
  }
});

it('draws an empty bar when the page carries no configuration (the host served without the portal server)', () => {
  const { container } = render(<StartupSkeleton />);
  expect(container.querySelector('.startup-bar')).toBeEmptyDOMElement();
});
