import { User, findByEmail } from './user';

export const team = [
  new User(1, 'Ada Lovelace', 'ada@example.com', 'admin'),
  new User(2, 'Alan Turing', 'alan@example.com', 'editor'),
  new User(3, '', 'not-an-address'),
];

export function report(users: readonly User[]): string[] {
  return users.map((user) => {
    const problems = user.validate();
    return `${user.displayName()}: ${problems.length === 0 ? 'ok' : problems.join(', ')}`;
  });
}

export function editorFor(email: string): User | undefined {
  const user = findByEmail(team, email);
  return user?.canEdit() ? user : undefined;
}
