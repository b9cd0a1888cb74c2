import { Component, type ErrorInfo, type ReactNode } from 'react';
import { RemoteUnavailable } from './RemoteUnavailable';

interface Props {
  remote: string;
  onRetry: () => Promise<unknown>;
  children: ReactNode;
  /** Where the failure panel is shown (a page of the host's own puts it in its chrome). */
  wrap?: (panel: ReactNode) => ReactNode;
}

/** The third layer: a remote that throws while rendering takes only its own slot down. */
export class RemoteErrorBoundary extends Component<Props, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error(`Remote '${this.props.remote}' failed while rendering.`, error, info.componentStack);
  }

  private readonly retry = async () => {
    await this.props.onRetry();
    this.setState({ failed: false });
  };

  override render() {
    if (!this.state.failed) return this.props.children;
    const panel = <RemoteUnavailable onRetry={this.retry} />;
    return this.props.wrap ? this.props.wrap(panel) : panel;
  }
}
