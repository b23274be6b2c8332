/**
 * The words of a page an emailed link opens that asks to press a button before the link counts (see
 * readConfirmButton in flows' in-page/read-confirm-button.ts), en, de, fr, es, pt, it, nl.
 */

/** The page speaks of confirming an email address, an account or a sign-in. */
export const CONFIRM_PAGE =
  /confirm|verif|activat|sign.?in|log.?in|e-?mail|address|account|best[aä]tig|aktivier|anmeld|confirmer|v[ée]rifi|activer|connexion|confirmar|verificar|activar|iniciar|ativar|entrar|confermare|verifica|attiva|accedi|bevestig|activeer|inloggen/i;

/** Its one control confirms ("Confirm", "Verify", "Activate", "Yes, sign me in"). */
export const CONFIRM_BUTTON =
  /^(confirm|verify|activate|yes|continue|sign ?in|log ?in|best[aä]tigen|aktivieren|weiter|anmelden|confirmer|v[ée]rifier|activer|continuer|se connecter|confirmar|verificar|activar|continuar|iniciar sesi[oó]n|ativar|entrar|conferma|verifica|attiva|continua|accedi|bevestigen|activeren|doorgaan|inloggen)\b/i;
