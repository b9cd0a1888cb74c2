/**
 * /tokens/services (spec section 2): only with smart-card support (else /profile). Links to where
 * the user makes tokens on each other service that issues its own (bitbucket, wiki, issue
 * tracker, each only when supported and its address configured); the source host's project
 * tokens with the PROJECT_KEY placeholder, which the user may fill in.
 */
import { links, PROJECT_KEY, serviceTokenLinks } from '@portal/api';
import { PageTitle, useConfiguration } from '@portal/shared';
import { Card, Input, Space, Typography } from 'antd';
import { useState } from 'react';
import { Navigate } from 'react-router-dom';

export const NO_SERVICE_TOKENS = 'No other service of this platform issues its own tokens here.';

function ProjectTokens({ template }: { template: string }) {
  const [key, setKey] = useState('');
  const clean = key.trim().toUpperCase().replace(/[^A-Z0-9_]/g, '');
  const href = template.replace(PROJECT_KEY, encodeURIComponent(clean));
  return (
    <Space orientation="vertical" size={4} style={{ width: '100%' }}>
      <Typography.Text>
        A project&apos;s tokens: <Typography.Text code>{template}</Typography.Text> (replace {PROJECT_KEY} with the project&apos;s key)
      </Typography.Text>
      <Space wrap>
        <label htmlFor="project-key">Project key</label>
        <Input id="project-key" value={key} onChange={(e) => setKey(e.target.value)} maxLength={64} style={{ width: 200 }} />
        {clean !== '' && <a href={href}>Open the tokens of project {clean}</a>}
      </Space>
    </Space>
  );
}

export function ServiceTokensPage() {
  const config = useConfiguration();
  if (!config.cac_support) return <Navigate to={links.profile()} replace />;
  const services = serviceTokenLinks(config);
  return (
    <>
      <PageTitle>Service Tokens</PageTitle>
      <Typography.Paragraph>
        Some services of the platform issue their own personal access tokens, for tools and scripts that cannot use your smart card. Make
        them on the service itself:
      </Typography.Paragraph>
      {services.length === 0 ? (
        <Typography.Paragraph>{NO_SERVICE_TOKENS}</Typography.Paragraph>
      ) : (
        <Space orientation="vertical" size={16} style={{ width: '100%', maxWidth: 900 }}>
          {services.map((service) => (
            <Card key={service.service} size="small" title={<span role="heading" aria-level={3}>{service.name}</span>}>
              <Space orientation="vertical" size={8} style={{ width: '100%' }}>
                <a href={service.userTokens}>Your {service.name} tokens</a>
                {service.projectTokens && <ProjectTokens template={service.projectTokens} />}
              </Space>
            </Card>
          ))}
        </Space>
      )}
    </>
  );
}
