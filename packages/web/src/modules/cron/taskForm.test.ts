// The task dialog's rules: a new task passes the server's schema once it has a name, each kind of
// mistake is reported on the field that holds it (in the module's codes, which both locale files
// translate), names are unique, actions move and the targets of module actions land in the
// member the offering module reads.
import { CRON_ACTION_TYPES, type CronTaskInput } from '@lucky/shared';
import { describe, expect, it } from 'vitest';
import enUS from '../../i18n/en_US.json';
import zhCN from '../../i18n/zh_CN.json';
import { checkTask, issueOfField, moveItem, newAction, newTask, targetFieldOf, tasksOfExport } from './taskForm';

const shell = (command: string, env = '') =>
  ({ ...newAction('shell'), command, env }) as CronTaskInput['actions'][number];
const named = (patch: Partial<CronTaskInput> = {}): CronTaskInput => ({
  ...newTask(),
  name: 'nightly',
  actions: [shell('true')],
  ...patch,
});

describe('checkTask', () => {
  it('passes a named task with a command', () => {
    expect(checkTask(named({ actions: [shell('echo hi')] }))).toEqual([]);
  });

  it('reports each mistake on its own field, with a code both languages translate', () => {
    const cases: [CronTaskInput, string, string][] = [
      [{ ...named(), name: '  ' }, 'name', 'nameRequired'],
      [named({ actions: [shell('')] }), 'actions.0.command', 'commandRequired'],
      [named({ actions: [shell('true', 'NOT A LINE')] }), 'actions.0.env', 'envLineInvalid'],
      [named({ actions: [] }), 'actions', 'actionsRequired'],
      [named({ schedule: { kind: 'cron', expression: '' } }), 'schedule.expression', 'expressionRequired'],
      [named({ schedule: { kind: 'cron', expression: '1 2 3' } }), 'schedule.expression', 'expressionInvalid'],
      [named({ actions: [{ ...newAction('http'), url: 'ftp://x' } as never] }), 'actions.0.url', 'urlInvalid'],
      [
        named({ actions: [{ ...newAction('http'), url: 'http://x', expectStatus: '2xx' } as never] }),
        'actions.0.expectStatus',
        'statusListInvalid',
      ],
      [
        named({ actions: [{ ...newAction('backup'), folder: 'relative' } as never] }),
        'actions.0.folder',
        'folderInvalid',
      ],
      [named({ actions: [{ ...newAction('module'), module: 'cron' } as never] }), 'actions.0.module', 'moduleSelf'],
      [
        named({ actions: [{ ...newAction('action'), module: 'ddns' } as never] }),
        'actions.0.action',
        'actionNameRequired',
      ],
    ];
    for (const [input, field, code] of cases) {
      const issue = issueOfField(checkTask(input), field.split('.'));
      expect(issue?.code, field).toBe(code);
      for (const locale of [enUS.cron, zhCN.cron] as Record<string, string>[])
        expect(locale[`err_${code}`], `err_${code}`).toBeTruthy();
    }
  });

  it('refuses a name another task has', () => {
    expect(issueOfField(checkTask(named(), ['nightly']), ['name'])?.code).toBe('nameTaken');
    expect(checkTask(named(), ['weekly'])).toEqual([]);
  });

  it('a new action of every type is valid once its one required field is filled', () => {
    const filled = {
      shell: { command: 'true' },
      http: { url: 'http://127.0.0.1/' },
      module: { module: 'ddns' },
      action: { module: 'ddns', action: 'syncNow' },
      backup: { folder: '/tmp/backups' },
    };
    for (const type of CRON_ACTION_TYPES) {
      const action = { ...newAction(type), ...filled[type] } as CronTaskInput['actions'][number];
      expect(checkTask(named({ actions: [action] })), type).toEqual([]);
    }
  });
});

describe('moveItem', () => {
  it('moves one place and keeps the list at its ends', () => {
    expect(moveItem(['a', 'b', 'c'], 1, -1)).toEqual(['b', 'a', 'c']);
    expect(moveItem(['a', 'b', 'c'], 1, 1)).toEqual(['a', 'c', 'b']);
    expect(moveItem(['a', 'b', 'c'], 0, -1)).toEqual(['a', 'b', 'c']);
    expect(moveItem(['a', 'b', 'c'], 2, 1)).toEqual(['a', 'b', 'c']);
  });
});

describe('targetFieldOf / tasksOfExport', () => {
  it('puts a target where the offering module reads it', () => {
    expect(targetFieldOf('ddns', 'syncNow')).toBe('task');
    expect(targetFieldOf('acme', 'renewNow')).toBe('certificate');
  });

  it('reads an export file, and nothing else', () => {
    expect(tasksOfExport('{"ret":0,"tasks":[{"name":"a"}]}')).toEqual([{ name: 'a' }]);
    expect(tasksOfExport('[{"name":"a"}]')).toEqual([{ name: 'a' }]);
    expect(tasksOfExport('{"tasks":1}')).toBeUndefined();
    expect(tasksOfExport('not json')).toBeUndefined();
  });
});
