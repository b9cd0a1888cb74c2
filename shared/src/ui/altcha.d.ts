// The ALTCHA widget is a custom element; React passes unknown props to it as attributes.
import type { AltchaWidgetElement } from 'altcha';
import type { DetailedHTMLProps, HTMLAttributes } from 'react';

declare module 'react' {
  namespace JSX {
    interface IntrinsicElements {
      'altcha-widget': DetailedHTMLProps<HTMLAttributes<AltchaWidgetElement>, AltchaWidgetElement>;
    }
  }
}
