// The cron module's REST calls (docs/API.md) and their query keys.
import type {
  CronExportResponse,
  CronHistoryResponse,
  CronImportResponse,
  CronListResponse,
  CronPreviewResponse,
  CronRunNowResponse,
  CronSettingsResponse,
  CronTaskInput,
  CronTaskResponse,
  ModuleActionsResponse,
} from '@lucky/shared';
import { del, get, post, put, type RequestOptions } from '../../api/client';

const BASE = 'api/cron';
const task = (key: string) => `${BASE}/tasks/${encodeURIComponent(key)}`;

const quiet: RequestOptions = { silent: true };

export const cronKeys = {
  all: ['cron'] as const,
  list: ['cron', 'tasks'] as const,
  history: (key: string) => ['cron', 'history', key] as const,
  preview: (expression: string) => ['cron', 'preview', expression] as const,
  actions: ['modules', 'actions'] as const,
};

export const fetchTasks = (signal?: AbortSignal) => get<CronListResponse>(`${BASE}/tasks`, { signal });
export const fetchHistory = (key: string, signal?: AbortSignal) =>
  get<CronHistoryResponse>(`${task(key)}/history`, { signal });
export const fetchModuleActions = (signal?: AbortSignal) =>
  get<ModuleActionsResponse>('api/modules/actions', { signal });

/** The next run times of an expression; refusals are the caller's to show beside the field. */
export const fetchPreview = (expression: string, signal?: AbortSignal) =>
  post<CronPreviewResponse>(`${BASE}/preview`, { expression }, { signal, silent: true });

export const addTask = (input: CronTaskInput) => post<CronTaskResponse>(`${BASE}/tasks`, input, quiet);
export const saveTask = (key: string, input: CronTaskInput) => put<CronTaskResponse>(task(key), input, quiet);
export const switchTask = (key: string, enabled: boolean) => put<CronTaskResponse>(`${task(key)}/enable`, { enabled });
export const deleteTask = (key: string) => del(task(key));
export const runTask = (key: string) => post<CronRunNowResponse>(`${task(key)}/run`, {});
export const switchModule = (enabled: boolean) => put('api/modules/cron/enabled', { enabled });
export const exportTasks = () => get<CronExportResponse>(`${BASE}/export`);
/** Silent: a refusal names a task of the file (`tasks.1.name`), which the screen words itself. */
export const importTasks = (tasks: unknown, mode: 'add' | 'replace') =>
  post<CronImportResponse>(`${BASE}/import`, { tasks, mode }, quiet);
export const saveSettings = (historySize: number) => put<CronSettingsResponse>(`${BASE}/settings`, { historySize });
