/** What an integration posts when the service tests its webhook (GitHub's ping and the like). */
export function setupMessage(integration: string, userName?: string | null): string {
  return `${integration} webhook has been successfully configured${userName ? ` by ${userName}` : ''}.`;
}
