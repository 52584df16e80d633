export * from './auth';
export * from './backoff';
export * from './endpoint-types';
export * from './errors';
export * from './explanations';
export * from './service-client';
export * from './transport';
