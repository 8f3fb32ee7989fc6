import { isRecord, type TopicDecoders, topics } from '../../shared/bus.ts';

/** `alerts.rule-changed`: a rule was created, edited or deleted; the evaluator reloads it. */
export interface AlertRuleChanged {
  id: string;
}

export interface AlertsTopics {
  [topics.alertRuleChanged]: AlertRuleChanged;
}

export const alertsTopicDecoders: TopicDecoders<AlertsTopics> = {
  [topics.alertRuleChanged]: (raw) =>
    isRecord(raw) && typeof raw.id === 'string' ? { id: raw.id } : undefined,
};
