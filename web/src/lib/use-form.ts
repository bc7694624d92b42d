import { useState } from 'preact/hooks';
import type { ApiError } from '../api/client.ts';
import { fieldErrors } from './format.ts';

/** An API error on a form: its field errors beside their fields, or, with none, the error above the form. */
export function showProblem(e: unknown, setErrors: (fields: Record<string, string>) => void, setError: (error: unknown) => void) {
  const fields = fieldErrors((e as ApiError).problem?.errors);
  setErrors(fields);
  if (Object.keys(fields).length === 0) setError(e);
}

/** A form's state: its values, the API's errors beside each field, anything else above it, and what worked. */
export function useForm<T extends Record<string, string>>(initial: T) {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<unknown>();
  const [done, setDone] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const set = (key: keyof T) => (e: { currentTarget: { value: string } }) => setValues({ ...values, [key]: e.currentTarget.value });
  const run = async (work: () => Promise<string>) => {
    setErrors({});
    setError(undefined);
    setDone(undefined);
    setBusy(true);
    try {
      setDone(await work());
    } catch (e) {
      showProblem(e, setErrors, setError);
    } finally {
      setBusy(false);
    }
  };
  return { values, setValues, set, errors, setErrors, error, done, busy, run };
}
