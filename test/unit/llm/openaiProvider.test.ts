import { defineProviderSuite } from './providerSuite';

defineProviderSuite({
  name: 'openai',
  model: 'gpt-test-mini',
  baseUrl: (server) => server.openaiBaseUrl,
  chatPath: '/v1/chat/completions',
});
