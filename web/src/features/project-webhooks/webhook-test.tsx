// A test message to one stored webhook (ProjectService TestWebhook, audited
// bb.projects.testWebhook) and what its receiver answered, or the refusal.
import { ProjectService } from "@gen/svc/v1/project_service_pb.js";
import type { Webhook } from "@gen/svc/v1/project_webhook_pb.js";
import { useState } from "react";
import { client } from "../../api/clients.ts";
import { FormError } from "../../components/alert.tsx";
import { useAction } from "../../hooks/use-action.ts";
import { type ReceiverAnswer, ReceiverAnswers } from "../admin/settings/receiver-answers.tsx";

interface TestAnswer {
  title: string;
  answer: ReceiverAnswer;
}

export function useWebhookTest() {
  const action = useAction();
  const [last, setLast] = useState<TestAnswer>();
  const [testing, setTesting] = useState<string>();
  const send = (webhook: Webhook) => {
    setLast(undefined);
    setTesting(webhook.title);
    void action.run(async () => {
      const reply = await client(ProjectService).testWebhook({ name: webhook.name });
      setLast({ title: webhook.title, answer: { receiver: webhook.urlShown, status: reply.status, body: reply.body, error: reply.error } });
    });
  };
  /** Forgets the last answer (the list changed). */
  const clear = () => (action.dismiss(), setLast(undefined));
  return { send, clear, pending: action.pending, view: <WebhookTestAnswer testing={testing} error={action.error} last={last} /> };
}

function WebhookTestAnswer({ testing, error, last }: { testing: string | undefined; error: string | undefined; last: TestAnswer | undefined }) {
  if (error) return <FormError message={`Test of ${testing}: ${error}`} />;
  if (!last) return null;
  return <ReceiverAnswers answers={[last.answer]} caption={`What ${last.title} answered`} />;
}
