/* tslint:disable */
/* eslint-disable */
export * from './AuthApi.js';
export * from './ClientsApi.js';
export * from './DashboardApi.js';
export * from './DeadLettersApi.js';
export * from './MessagesApi.js';
export * from './OperationsApi.js';
export * from './PushApi.js';
export * from './QueuesApi.js';
export * from './TopicsApi.js';
