/**
 * The browser's request client and its notifications. Islands import from here:
 *
 *   import { get, post, upload, download, message } from '../../lib/api/index.ts';
 *
 * See docs/request-client.md.
 */
export {
  request,
  get,
  goToLogin,
  post,
  upload,
  download,
  fetchDownload,
  type ApiEnvelope,
  type BodyData,
  type CallOptions,
  type Method,
  type RequestOptions,
  type UploadOptions,
  type UploadProgress,
} from './client.ts';
export { toDownloadQuery, flattenQuery, toFormBody, toMultipart, withQuery, type RequestData } from './encode.ts';
export {
  message,
  notification,
  MESSAGE_DURATION_MS,
  NOTICE_DURATION_MS,
  NOTIFICATION_DURATION_MS,
  NOTIFICATION_TOP_PX,
  type NotificationArgs,
  type ToastHandle,
  type ToastKind,
} from './notify.ts';
export { format, pageLocale } from './messages.ts';
