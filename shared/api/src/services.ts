/**
 * What the portal says about each service (spec section 1 names what each one is) and the
 * synchronization notices (spec section 8 for memberships; the subscription one is the
 * portal's own, see docs/decisions.md, "Self-service screens").
 */
import type { Service } from './config.js';

export interface ServiceInfo {
  /** The product name shown to users. */
  readonly name: string;
  readonly description: string;
}

export const SERVICE_INFO: Readonly<Record<Service, ServiceInfo>> = {
  artifacts: { name: 'Artifactory', description: 'Artifact repository: publish and fetch build artifacts and packages.' },
  bitbucket: { name: 'Bitbucket', description: 'Source hosting: Git repositories, pull requests and code review.' },
  confluence: { name: 'Confluence', description: 'Wiki: team spaces, documentation and meeting notes.' },
  jenkins: { name: 'Jenkins', description: 'Continuous integration: build, test and deployment pipelines.' },
  jira: { name: 'Jira', description: 'Issue tracker: projects, issues, boards and sprints.' },
  jsm: { name: 'Jira Service Management', description: 'Service desk: ask the platform team for help and follow your requests.' },
  sonarqube: { name: 'SonarQube', description: 'Code quality: static analysis, coverage and quality gates.' },
  repository: { name: 'Interface Repository', description: 'Interface repository: published interface definitions and their versions.' },
};

/** The services a group uses, by name, as every screen lists them ('None' for none); an unknown one as given. */
export function serviceNames(services: readonly string[]): string {
  return services.length > 0 ? services.map((service) => SERVICE_INFO[service as Service]?.name ?? service).join(', ') : 'None';
}

export const SYNC_NOTICES = {
  /** Spec section 8, word for word. */
  membership: 'Membership changes can take up to 10 minutes to synchronize with website services, once approved by a group admin.',
  /** The portal's own (the spec gives no text): a subscription needs no approval. */
  subscription: 'Subscription changes can take up to 10 minutes to synchronize with website services.',
} as const;
