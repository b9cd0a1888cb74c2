// Only the configuration's module of @portal/api (sideEffects: false): no schema, no typebox.
import { brandName, type PortalConfiguration } from '@portal/api';
import { bootData } from './prefetch';

/**
 * The frame index.html paints, drawn by React until the shell has loaded: the top bar with the
 * portal's name (as the server wrote it into the first HTML), and loading lines. No antd here.
 */
export function StartupSkeleton() {
  const configuration = bootData()?.configuration as Pick<PortalConfiguration, 'brand'> | undefined;
  return (
    <>
      <div className="startup-bar">
        {configuration && <span className="startup-brand">{brandName(configuration)}</span>}
      </div>
      <div className="startup-body" role="status" aria-label="Loading the portal">
        <div className="startup-line short" />
        <div className="startup-line" />
        <div className="startup-line" />
      </div>
    </>
  );
}
