/** The frame index.html paints, drawn by React until the shell has loaded. No antd here. */
export function StartupSkeleton() {
  return (
    <>
      <div className="startup-bar" />
      <div className="startup-body" role="status" aria-label="Loading the portal">
        <div className="startup-line short" />
        <div className="startup-line" />
        <div className="startup-line" />
      </div>
    </>
  );
}
