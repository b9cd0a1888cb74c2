import { Alert } from 'antd';
import { Component, type ReactNode } from 'react';

/**
 * Keeps a failed download of a table's code (a chunk of its own, loaded after the page's content)
 * to the table's place, with `message` in an alert, rather than the whole page.
 */
export class TableLoadBoundary extends Component<{ children: ReactNode; message: string }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override render() {
    return this.state.failed ? <Alert type="error" showIcon role="alert" title={this.props.message} /> : this.props.children;
  }
}
