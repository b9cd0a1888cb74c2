// The jest-dom matchers (toBeInTheDocument …) for every package's tests: one type-check program
// covers them all (../../tsconfig.json), and the matchers are installed by build/jest.setup.cjs.
import '@testing-library/jest-dom';
