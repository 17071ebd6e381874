import type { Integration } from './types';

/** SonarQube's quality-gate webhooks: the analysis result and the conditions that failed. */

type Payload = any;

/** A condition's operator, said as what the value should have been. */
const INVERSE_OPERATORS: Record<string, string> = {
  WORSE_THAN: 'should be better or equal to',
  GREATER_THAN: 'should be less than or equal to',
  LESS_THAN: 'should be greater than or equal to',
};

function condition(c: Payload): string {
  const metric = String(c.metric).split('_').join(' ');
  const status = String(c.status).toLowerCase();
  const value: string = c.value ?? 'no value';
  if (value === 'no value') return `* ${metric}: **${status}**.`;
  return `* ${metric}: **${status}** ${value} ${INVERSE_OPERATORS[c.operator] ?? c.operator} ${c.errorThreshold}.`;
}

function failedConditions(conditions: Payload[]): string {
  return conditions
    .filter((c) => !['ok', 'no_value'].includes(String(c.status).toLowerCase()))
    .map(condition)
    .join('\n');
}

export const sonarqube: Integration = {
  name: 'sonarqube',
  displayName: 'Sonarqube',
  handle(request) {
    const p = request.json();
    const project = `[${p.project.name}](${p.project.url})`;
    const branch: string | null = 'branch' in p ? (p.branch.name ?? null) : null;
    const result = String(p.qualityGate.status).toLowerCase() === 'ok' ? 'success' : 'error';
    const conditions = failedConditions(p.qualityGate.conditions);
    const analysis = branch ? `Project ${project} analysis of branch ${branch} resulted in ${result}` : `Project ${project} analysis resulted in ${result}`;
    return {
      topic: branch ? `${p.project.name} / ${branch}` : p.project.name,
      content: conditions ? `${analysis}:\n${conditions}` : `${analysis}.`,
    };
  },
};
