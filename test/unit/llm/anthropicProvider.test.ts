import { defineProviderSuite } from './providerSuite';

defineProviderSuite({
  name: 'anthropic',
  model: 'claude-test-sonnet',
  baseUrl: (server) => server.anthropicBaseUrl,
  chatPath: '/v1/messages',
});
