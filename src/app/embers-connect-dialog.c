/* embers-connect-dialog.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "embers-accessible.h"
#include "embers-connect-dialog.h"
#include "embers-pyroscope-source.h"

#define RECENT_SERVERS_KEY "recent-servers"
#define SERVER_TIMEOUTS_KEY "server-timeouts"
#define MAX_RECENT_SERVERS 10

struct _EmbersConnectDialog
{
  AdwDialog          parent_instance;

  /* Template */
  GtkButton         *cancel_button;
  GtkButton         *connect_button;
  AdwEntryRow       *url_row;
  AdwEntryRow       *tenant_row;
  AdwEntryRow       *span_row;
  AdwSpinRow        *timeout_row;
  AdwComboRow       *recent_row;
  AdwComboRow       *auth_row;
  AdwEntryRow       *user_row;
  AdwEntryRow       *password_row;
  AdwEntryRow       *token_row;
  GtkButton         *test_button;
  GtkWidget         *spinner;
  GtkImage          *status_icon;
  GtkLabel          *status_label;

  GSettings         *settings;     /* NULL when the schema lacks recent-servers */
  GtkStringList     *recent;
  GCancellable      *cancellable;  /* the test or connection under way */
  GCancellable      *lookup_cancellable;
  char              *status;
};

G_DEFINE_FINAL_TYPE (EmbersConnectDialog, embers_connect_dialog, ADW_TYPE_DIALOG)

enum
{
  SIGNAL_CONNECTED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* Status line */

static void
set_status (EmbersConnectDialog *self,
            const char          *icon_name,
            const char          *text)
{
  g_free (self->status);
  self->status = g_strdup (text != NULL ? text : "");
  gtk_label_set_text (self->status_label, self->status);
  gtk_widget_set_visible (GTK_WIDGET (self->status_icon), icon_name != NULL);
  if (icon_name != NULL)
    gtk_image_set_from_icon_name (self->status_icon, icon_name);
  gtk_widget_remove_css_class (GTK_WIDGET (self->status_label), "error");
  gtk_widget_remove_css_class (GTK_WIDGET (self->status_label), "success");
  if (g_strcmp0 (icon_name, "dialog-error-symbolic") == 0)
    gtk_widget_add_css_class (GTK_WIDGET (self->status_label), "error");
  else if (icon_name != NULL)
    gtk_widget_add_css_class (GTK_WIDGET (self->status_label), "success");
}

static void
update_sensitivity (EmbersConnectDialog *self)
{
  gboolean busy = embers_connect_dialog_get_busy (self);
  gboolean valid = embers_connect_dialog_get_url_valid (self);

  gtk_widget_set_sensitive (GTK_WIDGET (self->test_button), valid && !busy);
  gtk_widget_set_sensitive (GTK_WIDGET (self->connect_button), valid && !busy);
  gtk_widget_set_visible (self->spinner, busy);
}

static void
set_busy (EmbersConnectDialog *self,
          GCancellable        *cancellable)
{
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_set_object (&self->cancellable, cancellable);
  update_sensitivity (self);
}

/* Fields */

static void
url_changed (EmbersConnectDialog *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->url_row));
  gboolean valid = embers_connect_dialog_get_url_valid (self);

  if (text[0] != '\0' && !valid)
    gtk_widget_add_css_class (GTK_WIDGET (self->url_row), "error");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self->url_row), "error");

  if (text[0] != '\0' && !valid)
    set_status (self, NULL, _("Enter an http:// or https:// address, e.g. http://localhost:4040"));
  else if (!embers_connect_dialog_get_busy (self))
    set_status (self, NULL, "");
  update_sensitivity (self);
}

static void
auth_changed (EmbersConnectDialog *self)
{
  guint kind = adw_combo_row_get_selected (self->auth_row);

  gtk_widget_set_visible (GTK_WIDGET (self->user_row), kind == EMBERS_AUTH_BASIC);
  gtk_widget_set_visible (GTK_WIDGET (self->password_row), kind == EMBERS_AUTH_BASIC);
  gtk_widget_set_visible (GTK_WIDGET (self->token_row), kind == EMBERS_AUTH_BEARER);
}

static void
apply_credentials_to_fields (EmbersConnectDialog     *self,
                             const EmbersCredentials *credentials)
{
  embers_connect_dialog_set_auth (self, credentials->kind, credentials->user, credentials->secret);
  if (credentials->tenant != NULL)
    embers_connect_dialog_set_tenant (self, credentials->tenant);
}

static void
lookup_done (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(EmbersConnectDialog) self = user_data;
  g_autoptr(EmbersCredentials) credentials = NULL;
  g_autoptr(GError) error = NULL;

  credentials = embers_credentials_lookup_finish (result, &error);
  if (credentials != NULL)
    apply_credentials_to_fields (self, credentials);
  else if (error != NULL && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    g_debug ("No stored credentials: %s", error->message);
}

static void restore_timeout (EmbersConnectDialog *self, const char *url);

static void
recent_selected (EmbersConnectDialog *self)
{
  guint position = adw_combo_row_get_selected (self->recent_row);
  const char *url;

  if (self->recent == NULL ||
      position >= g_list_model_get_n_items (G_LIST_MODEL (self->recent)))
    return;

  url = gtk_string_list_get_string (self->recent, position);
  gtk_editable_set_text (GTK_EDITABLE (self->url_row), url);
  restore_timeout (self, url);

  if (self->lookup_cancellable != NULL)
    g_cancellable_cancel (self->lookup_cancellable);
  g_clear_object (&self->lookup_cancellable);
  self->lookup_cancellable = g_cancellable_new ();
  embers_credentials_lookup_async (url, NULL, self->lookup_cancellable,
                                   lookup_done, g_object_ref (self));
}

/* Timeouts are saved per server (by normalised URL), not secret: GSettings */
static gboolean
have_timeouts_key (EmbersConnectDialog *self)
{
  g_autoptr(GSettingsSchema) schema = NULL;

  if (self->settings == NULL)
    return FALSE;
  g_object_get (self->settings, "settings-schema", &schema, NULL);
  return schema != NULL && g_settings_schema_has_key (schema, SERVER_TIMEOUTS_KEY);
}

static void
restore_timeout (EmbersConnectDialog *self,
                 const char          *url)
{
  g_autofree char *key = embers_connect_normalize_base_url (url, NULL);
  guint seconds = EMBERS_CONNECT_DEFAULT_TIMEOUT_S;

  if (key != NULL && have_timeouts_key (self))
    {
      g_autoptr(GVariant) saved = g_settings_get_value (self->settings, SERVER_TIMEOUTS_KEY);

      if (!g_variant_lookup (saved, key, "u", &seconds))
        seconds = EMBERS_CONNECT_DEFAULT_TIMEOUT_S;
    }
  embers_connect_dialog_set_timeout (self, seconds);
}

static void
save_timeout (EmbersConnectDialog *self,
              const char          *url)
{
  g_autoptr(GVariant) saved = NULL;
  g_autoptr(GVariantBuilder) builder = NULL;
  GVariantIter iter;
  const char *key;
  guint value, seconds = embers_connect_dialog_get_timeout (self);

  if (!have_timeouts_key (self))
    return;
  saved = g_settings_get_value (self->settings, SERVER_TIMEOUTS_KEY);
  builder = g_variant_builder_new (G_VARIANT_TYPE ("a{su}"));
  g_variant_iter_init (&iter, saved);
  while (g_variant_iter_next (&iter, "{&su}", &key, &value))
    if (!g_str_equal (key, url))
      g_variant_builder_add (builder, "{su}", key, value);
  if (seconds != EMBERS_CONNECT_DEFAULT_TIMEOUT_S)
    g_variant_builder_add (builder, "{su}", url, seconds);
  g_settings_set_value (self->settings, SERVER_TIMEOUTS_KEY, g_variant_builder_end (builder));
}

static void
load_recent (EmbersConnectDialog *self)
{
  g_auto(GStrv) urls = NULL;

  if (self->settings == NULL)
    return;

  urls = g_settings_get_strv (self->settings, RECENT_SERVERS_KEY);
  self->recent = gtk_string_list_new ((const char * const *)urls);
  adw_combo_row_set_model (self->recent_row, G_LIST_MODEL (self->recent));
  gtk_widget_set_visible (GTK_WIDGET (self->recent_row), urls[0] != NULL);
  if (urls[0] != NULL)
    {
      gtk_editable_set_text (GTK_EDITABLE (self->url_row), urls[0]);
      restore_timeout (self, urls[0]);
    }
}

static void
remember_server (EmbersConnectDialog *self,
                 const char          *url)
{
  g_auto(GStrv) old = NULL;
  g_autoptr(GStrvBuilder) builder = NULL;
  g_auto(GStrv) urls = NULL;
  guint n = 1;

  if (self->settings == NULL)
    return;

  old = g_settings_get_strv (self->settings, RECENT_SERVERS_KEY);
  builder = g_strv_builder_new ();
  g_strv_builder_add (builder, url);
  for (guint i = 0; old[i] != NULL && n < MAX_RECENT_SERVERS; i++)
    if (!g_str_equal (old[i], url))
      {
        g_strv_builder_add (builder, old[i]);
        n++;
      }
  urls = g_strv_builder_end (builder);
  g_settings_set_strv (self->settings, RECENT_SERVERS_KEY, (const char * const *)urls);
}

/* Making a source from the fields */

static EmbersPyroscopeSource *
make_source (EmbersConnectDialog  *self,
             char                **out_url,
             GError              **error)
{
  g_autofree char *url = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->url_row))));
  g_autoptr(EmbersConnectClient) client = NULL;
  g_autoptr(EmbersCredentials) credentials = NULL;

  client = embers_connect_client_new (url, error);
  if (client == NULL)
    return NULL;
  credentials = embers_connect_dialog_dup_credentials (self);
  embers_credentials_apply (credentials, client);
  embers_connect_client_set_timeout (client, embers_connect_dialog_get_timeout (self));
  /* Translators: names the setting in “… raise the timeout (%s)” */
  embers_connect_client_set_timeout_setting (client, _("Timeout in Connect to Server"));
  if (out_url != NULL)
    *out_url = g_strdup (embers_connect_client_get_base_url (client));
  return embers_pyroscope_source_new (client);
}

typedef struct
{
  EmbersConnectDialog   *self;
  EmbersPyroscopeSource *source;
  GCancellable          *cancellable;
  char                  *url;
  gboolean               connect;
} Attempt;

static void
attempt_free (Attempt *attempt)
{
  g_clear_object (&attempt->self);
  g_clear_object (&attempt->source);
  g_clear_object (&attempt->cancellable);
  g_free (attempt->url);
  g_free (attempt);
}

static gboolean
attempt_is_current (Attempt *attempt)
{
  return !g_cancellable_is_cancelled (attempt->cancellable) &&
         attempt->self->cancellable == attempt->cancellable;
}

static void
attempt_failed (Attempt      *attempt,
                const GError *error)
{
  EmbersConnectDialog *self = attempt->self;
  g_autofree char *text = NULL;

  if (attempt->connect)
    text = g_strdup_printf (_("Could not connect: %s"), error->message);
  else
    text = g_strdup_printf (_("Connection failed: %s"), error->message);
  g_clear_object (&self->cancellable);
  set_status (self, "dialog-error-symbolic", text);
  update_sensitivity (self);
}

/* The keyring's answer comes after the dialog has closed: a failure is
 * told in the window it was opened on (a toast), not only logged */
typedef struct
{
  GWeakRef  window;
  char     *host;
} Store;

static void
store_done (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  Store *store = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GtkWidget) window = g_weak_ref_get (&store->window);

  if (!embers_credentials_store_finish (result, &error))
    {
      g_message ("Could not save the server's credentials in the keyring: %s", error->message);
      if (window != NULL)
        {
          /* Translators: a toast after connecting; %s is a server's host
           * name */
          g_autofree char *text = g_strdup_printf (_("The keyring could not save the credentials for %s: "
                                                     "they will be asked for again next time"),
                                                   store->host);

          gtk_widget_activate_action (window, "win.show-toast", "s", text);
        }
    }
  g_weak_ref_clear (&store->window);
  g_free (store->host);
  g_free (store);
}

static void
types_done (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  Attempt *attempt = user_data;
  EmbersConnectDialog *self = attempt->self;
  g_autoptr(GPtrArray) types = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  types = embers_source_list_profile_types_finish (EMBERS_SOURCE (object), result, &error);
  if (!attempt_is_current (attempt))
    {
      attempt_free (attempt);
      return;
    }
  if (types == NULL)
    {
      attempt_failed (attempt, error);
      attempt_free (attempt);
      return;
    }

  if (types->len == 0)
    text = g_strdup (_("Connected. The server has no profiles in the last hour."));
  else
    text = g_strdup_printf (g_dngettext (NULL,
                                         "Connected. %u profile type in the last hour.",
                                         "Connected. %u profile types in the last hour.",
                                         types->len),
                            types->len);
  g_clear_object (&self->cancellable);
  set_status (self, "emblem-ok-symbolic", text);
  update_sensitivity (self);
  attempt_free (attempt);
}

static void
probe_done (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  Attempt *attempt = user_data;
  EmbersConnectDialog *self = attempt->self;
  g_autoptr(GError) error = NULL;
  gboolean ok;

  ok = embers_pyroscope_source_probe_finish (EMBERS_PYROSCOPE_SOURCE (object), result, &error);
  if (!attempt_is_current (attempt))
    {
      attempt_free (attempt);
      return;
    }
  if (!ok)
    {
      attempt_failed (attempt, error);
      attempt_free (attempt);
      return;
    }

  if (!attempt->connect)
    {
      gint64 now_ms = g_get_real_time () / 1000;

      embers_source_list_profile_types (EMBERS_SOURCE (attempt->source),
                                        now_ms - 3600 * 1000, now_ms,
                                        attempt->cancellable, types_done, attempt);
      return;
    }

  {
    g_autoptr(EmbersCredentials) credentials = embers_connect_dialog_dup_credentials (self);

    if (credentials->kind != EMBERS_AUTH_NONE)
      {
        Store *store = g_new0 (Store, 1);
        GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
        g_autoptr(GUri) uri = g_uri_parse (attempt->url, G_URI_FLAGS_NONE, NULL);
        GtkWidget *window = GTK_WIDGET (root);

        /* A floating dialog is its own window, over the one it is for */
        if (GTK_IS_WINDOW (root) && gtk_window_get_transient_for (GTK_WINDOW (root)) != NULL)
          window = GTK_WIDGET (gtk_window_get_transient_for (GTK_WINDOW (root)));
        g_weak_ref_init (&store->window, window);
        /* The host only: never a password a URL may carry */
        store->host = g_strdup (uri != NULL && g_uri_get_host (uri) != NULL ? g_uri_get_host (uri) : _("the server"));
        embers_credentials_store_async (attempt->url, credentials, NULL, store_done, store);
      }
  }
  remember_server (self, attempt->url);
  save_timeout (self, attempt->url);
  g_clear_object (&self->cancellable);
  set_status (self, "emblem-ok-symbolic", _("Connected."));
  update_sensitivity (self);

  g_object_ref (self);
  g_signal_emit (self, signals[SIGNAL_CONNECTED], 0, attempt->source, attempt->url);
  adw_dialog_close (ADW_DIALOG (self));
  g_object_unref (self);
  attempt_free (attempt);
}

static void
start_attempt (EmbersConnectDialog *self,
               gboolean             connect)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GCancellable) cancellable = NULL;
  Attempt *attempt;
  char *url = NULL;
  EmbersPyroscopeSource *source;

  source = make_source (self, &url, &error);
  if (source == NULL)
    {
      set_busy (self, NULL);
      set_status (self, "dialog-error-symbolic", error->message);
      return;
    }

  cancellable = g_cancellable_new ();
  set_busy (self, cancellable);
  set_status (self, NULL, connect ? _("Connecting…") : _("Testing the connection…"));

  attempt = g_new0 (Attempt, 1);
  attempt->self = g_object_ref (self);
  attempt->source = source;
  attempt->cancellable = g_object_ref (cancellable);
  attempt->url = url;
  attempt->connect = connect;
  embers_pyroscope_source_probe_async (source, cancellable, probe_done, attempt);
}

/* GObject */

static void
embers_connect_dialog_dispose (GObject *object)
{
  EmbersConnectDialog *self = EMBERS_CONNECT_DIALOG (object);

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  if (self->lookup_cancellable != NULL)
    g_cancellable_cancel (self->lookup_cancellable);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->lookup_cancellable);
  g_clear_object (&self->settings);
  g_clear_object (&self->recent);

  gtk_widget_dispose_template (GTK_WIDGET (self), EMBERS_TYPE_CONNECT_DIALOG);

  G_OBJECT_CLASS (embers_connect_dialog_parent_class)->dispose (object);
}

static void
embers_connect_dialog_finalize (GObject *object)
{
  EmbersConnectDialog *self = EMBERS_CONNECT_DIALOG (object);

  g_free (self->status);

  G_OBJECT_CLASS (embers_connect_dialog_parent_class)->finalize (object);
}

static void
embers_connect_dialog_class_init (EmbersConnectDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = embers_connect_dialog_dispose;
  object_class->finalize = embers_connect_dialog_finalize;

  /**
   * EmbersConnectDialog::connected:
   * @source: an EmbersPyroscopeSource that answered the probe
   * @url: the normalised base URL
   */
  signals[SIGNAL_CONNECTED] =
    g_signal_new ("connected",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 2, EMBERS_TYPE_SOURCE, G_TYPE_STRING);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/emberslab/Embers/embers-connect-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, EmbersConnectDialog, cancel_button);
  gtk_widget_class_bind_template_child (widget_class, EmbersConnectDialog, connect_button);
  gtk_widget_class_bind_template_child (widget_class, EmbersConnectDialog, url_row);
  gtk_widget_class_bind_template_child (widget_class, EmbersConnectDialog, span_row);
  gtk_widget_class_bind_template_child (widget_class, EmbersConnectDialog, tenant_row);
  gtk_widget_class_bind_template_child (widget_class, EmbersConnectDialog, timeout_row);
  gtk_widget_class_bind_template_child (widget_class, EmbersConnectDialog, recent_row);
  gtk_widget_class_bind_template_child (widget_class, EmbersConnectDialog, auth_row);
  gtk_widget_class_bind_template_child (widget_class, EmbersConnectDialog, user_row);
  gtk_widget_class_bind_template_child (widget_class, EmbersConnectDialog, password_row);
  gtk_widget_class_bind_template_child (widget_class, EmbersConnectDialog, token_row);
  gtk_widget_class_bind_template_child (widget_class, EmbersConnectDialog, test_button);
  gtk_widget_class_bind_template_child (widget_class, EmbersConnectDialog, spinner);
  gtk_widget_class_bind_template_child (widget_class, EmbersConnectDialog, status_icon);
  gtk_widget_class_bind_template_child (widget_class, EmbersConnectDialog, status_label);
}

static void
settings_init (EmbersConnectDialog *self)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = NULL;

  if (source != NULL)
    schema = g_settings_schema_source_lookup (source, APP_ID, TRUE);
  if (schema != NULL && g_settings_schema_has_key (schema, RECENT_SERVERS_KEY))
    self->settings = g_settings_new (APP_ID);
}

static void
embers_connect_dialog_init (EmbersConnectDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  g_signal_connect_swapped (self->url_row, "changed", G_CALLBACK (url_changed), self);
  g_signal_connect_swapped (self->url_row, "entry-activated",
                            G_CALLBACK (embers_connect_dialog_connect), self);
  g_signal_connect_swapped (self->auth_row, "notify::selected", G_CALLBACK (auth_changed), self);
  g_signal_connect_swapped (self->test_button, "clicked",
                            G_CALLBACK (embers_connect_dialog_test_connection), self);
  g_signal_connect_swapped (self->connect_button, "clicked",
                            G_CALLBACK (embers_connect_dialog_connect), self);
  g_signal_connect_swapped (self->cancel_button, "clicked", G_CALLBACK (adw_dialog_close), self);

  settings_init (self);
  load_recent (self);
  /* A person's choice from here on: filling the list above selected its
   * first server, whose address load_recent put in the field itself */
  g_signal_connect_swapped (self->recent_row, "notify::selected", G_CALLBACK (recent_selected), self);
  auth_changed (self);
  url_changed (self);
}

/* API */

EmbersConnectDialog *
embers_connect_dialog_new (void)
{
  return g_object_new (EMBERS_TYPE_CONNECT_DIALOG, NULL);
}

void
embers_connect_dialog_set_url (EmbersConnectDialog *self,
                               const char          *url)
{
  GUriFlags flags = G_URI_FLAGS_HAS_PASSWORD | G_URI_FLAGS_ENCODED_PATH |
                    G_URI_FLAGS_ENCODED_QUERY | G_URI_FLAGS_ENCODED_FRAGMENT;
  g_autoptr(GUri) uri = NULL;

  g_return_if_fail (EMBERS_IS_CONNECT_DIALOG (self));

  /* user:password@ in the address (embers --server URL) goes to the
   * authentication fields, where the password is hidden, and from there
   * to the keyring; the address field shows the server only */
  uri = url != NULL ? g_uri_parse (url, flags, NULL) : NULL;
  if (uri != NULL && g_uri_get_user (uri) != NULL && g_uri_get_password (uri) != NULL)
    {
      g_autoptr(GUri) bare = g_uri_build (flags & ~G_URI_FLAGS_HAS_PASSWORD, g_uri_get_scheme (uri), NULL,
                                          g_uri_get_host (uri), g_uri_get_port (uri),
                                          g_uri_get_path (uri), g_uri_get_query (uri),
                                          g_uri_get_fragment (uri));
      g_autofree char *text = g_uri_to_string (bare);

      gtk_editable_set_text (GTK_EDITABLE (self->url_row), text);
      embers_connect_dialog_set_auth (self, EMBERS_AUTH_BASIC, g_uri_get_user (uri), g_uri_get_password (uri));
      return;
    }

  gtk_editable_set_text (GTK_EDITABLE (self->url_row), url != NULL ? url : "");
  if (url != NULL)
    restore_timeout (self, url);
}

void
embers_connect_dialog_set_timeout (EmbersConnectDialog *self,
                                   guint                seconds)
{
  g_return_if_fail (EMBERS_IS_CONNECT_DIALOG (self));
  adw_spin_row_set_value (self->timeout_row, CLAMP (seconds, 1, 86400));
}

guint
embers_connect_dialog_get_timeout (EmbersConnectDialog *self)
{
  g_return_val_if_fail (EMBERS_IS_CONNECT_DIALOG (self), EMBERS_CONNECT_DEFAULT_TIMEOUT_S);
  return (guint) CLAMP (adw_spin_row_get_value (self->timeout_row), 1, 86400);
}

const char *
embers_connect_dialog_get_url (EmbersConnectDialog *self)
{
  g_return_val_if_fail (EMBERS_IS_CONNECT_DIALOG (self), NULL);
  return gtk_editable_get_text (GTK_EDITABLE (self->url_row));
}

void
embers_connect_dialog_set_tenant (EmbersConnectDialog *self,
                                  const char          *tenant)
{
  g_return_if_fail (EMBERS_IS_CONNECT_DIALOG (self));
  gtk_editable_set_text (GTK_EDITABLE (self->tenant_row), tenant != NULL ? tenant : "");
}

void
embers_connect_dialog_set_auth (EmbersConnectDialog *self,
                                EmbersAuthKind       kind,
                                const char          *user,
                                const char          *secret)
{
  g_return_if_fail (EMBERS_IS_CONNECT_DIALOG (self));

  adw_combo_row_set_selected (self->auth_row, kind);
  gtk_editable_set_text (GTK_EDITABLE (self->user_row), user != NULL ? user : "");
  gtk_editable_set_text (GTK_EDITABLE (self->password_row),
                         kind == EMBERS_AUTH_BASIC && secret != NULL ? secret : "");
  gtk_editable_set_text (GTK_EDITABLE (self->token_row),
                         kind == EMBERS_AUTH_BEARER && secret != NULL ? secret : "");
}

void
embers_connect_dialog_ask_credentials (EmbersConnectDialog *self,
                                       const char          *reason)
{
  GtkWidget *field = NULL;

  g_return_if_fail (EMBERS_IS_CONNECT_DIALOG (self));

  set_status (self, "dialog-password-symbolic", reason);
  /* Not the error or success look: a reason, read with the dialog */
  gtk_widget_remove_css_class (GTK_WIDGET (self->status_label), "success");
  switch (adw_combo_row_get_selected (self->auth_row))
    {
    case EMBERS_AUTH_BASIC:
      field = GTK_WIDGET (gtk_editable_get_text (GTK_EDITABLE (self->user_row))[0] == '\0'
                          ? self->user_row : self->password_row);
      break;
    case EMBERS_AUTH_BEARER:
      field = GTK_WIDGET (self->token_row);
      break;
    default:
      field = GTK_WIDGET (self->auth_row);
      break;
    }
  adw_dialog_set_focus (ADW_DIALOG (self), field);
  if (reason != NULL)
    gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, reason, -1);
}

EmbersCredentials *
embers_connect_dialog_dup_credentials (EmbersConnectDialog *self)
{
  guint kind;
  const char *tenant;

  g_return_val_if_fail (EMBERS_IS_CONNECT_DIALOG (self), NULL);

  kind = adw_combo_row_get_selected (self->auth_row);
  tenant = gtk_editable_get_text (GTK_EDITABLE (self->tenant_row));
  if (tenant[0] == '\0')
    tenant = NULL;

  switch (kind)
    {
    case EMBERS_AUTH_BASIC:
      return embers_credentials_new (EMBERS_AUTH_BASIC,
                                     gtk_editable_get_text (GTK_EDITABLE (self->user_row)),
                                     gtk_editable_get_text (GTK_EDITABLE (self->password_row)),
                                     tenant);
    case EMBERS_AUTH_BEARER:
      return embers_credentials_new (EMBERS_AUTH_BEARER, NULL,
                                     gtk_editable_get_text (GTK_EDITABLE (self->token_row)),
                                     tenant);
    default:
      return embers_credentials_new (EMBERS_AUTH_NONE, NULL, NULL, tenant);
    }
}

gboolean
embers_connect_dialog_get_url_valid (EmbersConnectDialog *self)
{
  g_autofree char *normal = NULL;
  g_autofree char *text = NULL;

  g_return_val_if_fail (EMBERS_IS_CONNECT_DIALOG (self), FALSE);

  text = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->url_row))));
  if (text[0] == '\0')
    return FALSE;
  normal = embers_connect_normalize_base_url (text, NULL);
  return normal != NULL;
}

void
embers_connect_dialog_test_connection (EmbersConnectDialog *self)
{
  g_return_if_fail (EMBERS_IS_CONNECT_DIALOG (self));
  if (!embers_connect_dialog_get_url_valid (self))
    return;
  start_attempt (self, FALSE);
}

void
embers_connect_dialog_connect (EmbersConnectDialog *self)
{
  g_return_if_fail (EMBERS_IS_CONNECT_DIALOG (self));
  if (!embers_connect_dialog_get_url_valid (self))
    return;
  /* A span or trace id that is none is said before connecting */
  {
    const char *id = embers_connect_dialog_get_span_id (self);
    g_autoptr(GError) error = NULL;

    if (id != NULL && !embers_pyroscope_check_span_id (id, strlen (id) == 32, &error))
      {
        gtk_widget_add_css_class (GTK_WIDGET (self->span_row), "error");
        set_status (self, "dialog-error-symbolic", error->message);
        return;
      }
    gtk_widget_remove_css_class (GTK_WIDGET (self->span_row), "error");
  }
  start_attempt (self, TRUE);
}

void
embers_connect_dialog_set_span_id (EmbersConnectDialog *self,
                                   const char          *id)
{
  g_return_if_fail (EMBERS_IS_CONNECT_DIALOG (self));
  gtk_editable_set_text (GTK_EDITABLE (self->span_row), id != NULL ? id : "");
}

const char *
embers_connect_dialog_get_span_id (EmbersConnectDialog *self)
{
  const char *text;

  g_return_val_if_fail (EMBERS_IS_CONNECT_DIALOG (self), NULL);
  text = gtk_editable_get_text (GTK_EDITABLE (self->span_row));
  return text != NULL && text[0] != '\0' ? text : NULL;
}

gboolean
embers_connect_dialog_get_busy (EmbersConnectDialog *self)
{
  g_return_val_if_fail (EMBERS_IS_CONNECT_DIALOG (self), FALSE);
  return self->cancellable != NULL;
}

const char *
embers_connect_dialog_get_status (EmbersConnectDialog *self)
{
  g_return_val_if_fail (EMBERS_IS_CONNECT_DIALOG (self), NULL);
  return self->status != NULL ? self->status : "";
}
