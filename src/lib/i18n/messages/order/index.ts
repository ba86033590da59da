/**
 * Orders: the ordering rules' messages, forbidden transitions (status and action in words),
 * the order notices (`order.notice.*`) and the labels of the order forms' fields (`field.*`,
 * kept here with the forms that use them).
 */
import zhCN from './zh-CN.json' with { type: 'json' };
import enUS from './en-US.json' with { type: 'json' };
import zhTW from './zh-TW.json' with { type: 'json' };
import idID from './id-ID.json' with { type: 'json' };
import ptBR from './pt-BR.json' with { type: 'json' };

export default { 'zh-CN': zhCN, 'en-US': enUS, 'zh-TW': zhTW, 'id-ID': idID, 'pt-BR': ptBR };
