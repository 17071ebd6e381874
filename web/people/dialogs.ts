/** The people area's code that the first view does not need, loaded as one chunk when first wanted. */
export { UserCard } from './UserCard';
export { Profile } from './Profile';
export { StatusDialog } from './StatusDialog';
export { MutedUsers } from './MutedUsers';
