export const config = {
  appName: 'Playground',
  maxNameLength: 64,
  dormantAfterDays: 90,
  retry: {
    attempts: 3,
    backoffMs: 250,
  },
  features: {
    darkMode: true,
    betaReports: false,
  },
};

export type Config = typeof config;
